'use client';
// Swagger UI rendering the document the server publishes, from the npm package (no CDN). Imported
// only by the explorer's button (components/api-explorer.tsx), with its stylesheet.
import { useEffect, useRef, useState } from 'react';
import 'swagger-ui-dist/swagger-ui.css';
import { Alert } from './notices';

type SwaggerUIBundle = (options: Record<string, unknown>) => unknown;

export function ApiReference() {
  const container = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let cancelled = false;
    import('swagger-ui-dist/swagger-ui-es-bundle.js')
      .then((module: { default: SwaggerUIBundle }) => {
        if (cancelled || !container.current) return;
        module.default({
          url: '/openapi.json',
          domNode: container.current,
          deepLinking: false,
          persistAuthorization: false,
          tryItOutEnabled: false,
        });
      })
      .catch(() => setFailed(true));
    return () => {
      cancelled = true;
    };
  }, []);

  return (
    <>
      <Alert>
        {failed && (
          <>
            The explorer could not be loaded. The raw document is at <a href="/openapi.json">/openapi.json</a>.
          </>
        )}
      </Alert>
      <div ref={container} className="swagger-host" />
    </>
  );
}
