'use client';
import type { ButtonHTMLAttributes } from 'react';
import { useHydrated } from './use-hydrated';

/**
 * A button that works only through the page's script (`type="button"` with a click handler), shown
 * disabled until React has hydrated the page: a click before then reaches no handler and is lost,
 * so the button should not look as if it could be pressed. Its own `disabled` still applies.
 */
export function ScriptButton({ disabled, ...props }: Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'type'>) {
  const hydrated = useHydrated();
  return <button {...props} type="button" disabled={disabled || !hydrated} />;
}
