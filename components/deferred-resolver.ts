// A form's react-hook-form resolver, loaded when it is first wanted rather than with the page: the
// shared zod schemas and zod's engine are the largest part of a form page's own JavaScript, and
// evaluating them as the page started was part of its longest task on a slow phone
// (docs/performance.md, Page weight). A form starts the load when someone first focuses or presses
// in it (`preload`), so it is there before they submit; the resolver waits for it if it is not.
import type { FieldErrors, FieldValues, Resolver } from 'react-hook-form';
import { UNREACHABLE_MESSAGE } from './use-session-token';

export type DeferredResolver<Input extends FieldValues, Output> = {
  resolver: Resolver<Input, unknown, Output>;
  /** Starts loading the resolver, if it is not loaded or loading. */
  preload: () => void;
};

export function deferredResolver<Input extends FieldValues, Output>(
  load: () => Promise<Resolver<Input, unknown, Output>>,
): DeferredResolver<Input, Output> {
  let loading: Promise<Resolver<Input, unknown, Output>> | undefined;
  const loaded = () =>
    (loading ??= load().catch((error: unknown) => {
      // Not kept: the next submit tries again (the connection may be back).
      loading = undefined;
      throw error;
    }));
  return {
    async resolver(values, context, options) {
      let resolve: Resolver<Input, unknown, Output>;
      try {
        resolve = await loaded();
      } catch {
        // The form shows this as it shows a failed request; nothing is sent.
        const errors = { root: { type: 'unreachable', message: UNREACHABLE_MESSAGE } } as FieldErrors<Input>;
        return { values: {}, errors };
      }
      return resolve(values, context, options);
    },
    preload() {
      loaded().catch(() => {});
    },
  };
}
