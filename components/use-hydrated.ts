import { useSyncExternalStore } from 'react';

const never = () => () => {};

/**
 * False in the server's HTML and while React hydrates it, true once the page's script has taken
 * over. A control that works only through its script can show itself disabled until then: a click
 * that lands before hydration has committed reaches no handler and is lost.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    never,
    () => true,
    () => false,
  );
}
