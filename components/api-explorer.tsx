'use client';
// The interactive explorer (Swagger UI) on demand: its bundle, the largest of the site
// (docs/performance.md#lighthouse), and its stylesheet are fetched and run only when someone asks
// for them, never as the page loads.
import { useEffect, useRef, useState, type ComponentType } from 'react';
import { Alert } from './notices';
import { ScriptButton } from './script-button';

export function ApiExplorer() {
  const [Explorer, setExplorer] = useState<ComponentType | null>(null);
  const [loading, setLoading] = useState(false);
  const [failed, setFailed] = useState(false);
  const region = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (Explorer) region.current?.focus();
  }, [Explorer]);

  const open = () => {
    setLoading(true);
    setFailed(false);
    import('./api-reference')
      .then((module) => setExplorer(() => module.ApiReference))
      .catch(() => setFailed(true))
      .finally(() => setLoading(false));
  };

  if (Explorer) {
    return (
      <div ref={region} tabIndex={-1} role="region" aria-label="Interactive explorer" className="explorer">
        <Explorer />
      </div>
    );
  }
  return (
    <>
      <Alert>
        {failed && (
          <>
            The explorer could not be loaded. The reference below and the raw document at <a href="/openapi.json">/openapi.json</a> are complete.
          </>
        )}
      </Alert>
      <ScriptButton onClick={open} disabled={loading}>
        {loading ? 'Opening the interactive explorer…' : 'Open the interactive explorer'}
      </ScriptButton>
    </>
  );
}
