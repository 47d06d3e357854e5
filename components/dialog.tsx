'use client';
// A modal dialog on the native <dialog>: the browser keeps focus inside it, makes the page behind
// it inert, and closes it on Escape. It opens when it mounts; its owner unmounts it to close it.
// Focus starts on the element marked data-autofocus (React's autoFocus would run before the
// dialog opens, and opening it moves focus to its first control).
import { useLayoutEffect, useRef, type ReactNode } from 'react';

export function Dialog({ labelledBy, onClose, children }: { labelledBy: string; onClose: () => void; children: ReactNode }) {
  const dialog = useRef<HTMLDialogElement>(null);
  useLayoutEffect(() => {
    const element = dialog.current!;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    element.showModal();
    element.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    return () => {
      element.close();
      // Back where the person was, if that is still on the page.
      if (opener?.isConnected) opener.focus();
    };
  }, []);
  return (
    <dialog
      ref={dialog}
      className="dialog"
      aria-labelledby={labelledBy}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      {children}
    </dialog>
  );
}
