// A form's actions row with its one submit button: while the form is busy, the button is
// disabled (a second click would send the form twice) and says what is happening.
export function SubmitActions({ busy, label, busyLabel }: { busy: boolean; label: string; busyLabel: string }) {
  return (
    <div className="actions">
      <button type="submit" disabled={busy}>
        {busy ? busyLabel : label}
      </button>
    </div>
  );
}
