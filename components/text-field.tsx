import type { InputHTMLAttributes, ReactNode } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';

type TextFieldProps = {
  label: string;
  hint?: string;
  error?: string;
  registration: UseFormRegisterReturn;
  /** A control beside the input (a button that fills it in, say); it comes after it in tab order. */
  action?: ReactNode;
} & Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'name'>;

/**
 * A labelled input with its hint and its error line. The error line is always rendered (empty when
 * fine), so a message appearing moves nothing; the input points at both through aria-describedby.
 */
export function TextField({ label, hint, error, registration, action, ...input }: TextFieldProps) {
  const id = registration.name;
  const describedBy = [hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(' ') || undefined;
  const field = (
    <input
      id={id}
      autoComplete="off"
      {...input}
      aria-invalid={error ? true : undefined}
      aria-describedby={describedBy}
      {...registration}
    />
  );
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {action ? (
        <div className="input-with-action">
          {field}
          {action}
        </div>
      ) : (
        field
      )}
      {hint && (
        <p id={`${id}-hint`} className="hint">
          {hint}
        </p>
      )}
      <p id={`${id}-error`} className="field-error">
        {error}
      </p>
    </div>
  );
}
