// The line under the sign-in form for a person who forgot their password: the page that mails a
// link when the server sends email, else whom to ask.
export function ForgotPasswordHint({ mailOn }: { mailOn: boolean }) {
  return (
    <p className="below-card">
      {mailOn ? (
        <a href="/forgot-password">Forgot your password?</a>
      ) : (
        <>Forgot your password? Ask an admin of the store for a link to set a new one.</>
      )}
    </p>
  );
}
