import { useHydrated } from './use-hydrated';

// A form's actions row with its one submit button: while the form is busy, the button is
// disabled (a second click would send the form twice) and says what is happening. Every form
// that uses it sends itself through the page's script, so the button is disabled until React has
// hydrated the page too: sent before then, the form would go as plain HTML, or not at all.
export function SubmitActions({ busy, label, busyLabel }: { busy: boolean; label: string; busyLabel: string }) {
  const hydrated = useHydrated();
  return (
    <div className="actions">
      <button type="submit" disabled={busy || !hydrated}>
        {busy ? busyLabel : label}
      </button>
    </div>
  );
}
