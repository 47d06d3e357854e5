// The API reference as plain HTML, rendered on the server from the published OpenAPI document:
// the overview, every operation (method, path, summary, scope, parameters, body, responses) and
// the schemas. No script: the interactive explorer (Swagger UI) is loaded only when asked. The
// reference reaches React as one piece of HTML text, not as elements: it is about 2,000 elements,
// which hydrating one by one cost the page's script a long task on a slow phone, and which the page
// also carried twice (as markup and as React's payload).
import { html, type Html } from './html';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** Text with `code` spans, as the document's descriptions write them. */
const text = (value: string): Html =>
  html`${value.split(/(`[^`]+`)/).map((part) => (part.startsWith('`') && part.endsWith('`') && part.length > 1 ? html`<code>${part.slice(1, -1)}</code>` : part))}`;

/** A table that scrolls sideways on a narrow screen, with a header row of `columns` and `rows`. */
const table = (columns: string[], rows: Html[]): Html =>
  html`<div class="table-scroll"><table><thead><tr>${columns.map((column) => html`<th scope="col">${column}</th>`)}</tr></thead><tbody>${rows}</tbody></table></div>`;

/** A description: paragraphs, and the Markdown tables among them (the error catalogue). */
function description(value?: string): Html | undefined {
  if (!value) return undefined;
  return html`${value.split(/\n\n+/).map((block) => {
    const lines = block.split('\n');
    if (lines.length > 2 && lines.every((line) => line.startsWith('|'))) {
      const cells = (line: string) => line.replace(/^\||\|$/g, '').split('|').map((cell) => cell.trim());
      const [head, , ...rows] = lines;
      return table(cells(head), rows.map((row) => html`<tr>${cells(row).map((cell) => html`<td>${text(cell)}</td>`)}</tr>`));
    }
    return html`<p>${text(block)}</p>`;
  })}`;
}

const schemaName = (ref: string) => ref.split('/').at(-1)!;
const schemaAnchor = (name: string) => `schema-${name}`;

/** A schema in a few words: its type (a link for a named schema) and its limits. */
function schemaType(schema?: Json): Html | undefined {
  if (!schema) return undefined;
  if (schema.$ref) {
    const name = schemaName(schema.$ref);
    return html`<a href="#${schemaAnchor(name)}">${name}</a>`;
  }
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return html`${(alternatives as Json[]).map((alternative, index) => html`${index > 0 && ' or '}${schemaType(alternative)}`)}`;
  if (schema.const !== undefined) return html`<code>${JSON.stringify(schema.const)}</code>`;
  if (schema.type === 'array') return html`array of ${schemaType(schema.items)}${schema.maxItems !== undefined && `, at most ${schema.maxItems}`}`;
  const limits = [
    schema.format,
    schema.enum && `one of ${(schema.enum as unknown[]).map((value) => JSON.stringify(value)).join(', ')}`,
    schema.minLength !== undefined && `${schema.minLength}–${schema.maxLength ?? '…'} characters`,
    schema.minLength === undefined && schema.maxLength !== undefined && `at most ${schema.maxLength} characters`,
    schema.type === 'integer' && schema.format === undefined && schema.minimum !== undefined && `${schema.minimum} to ${schema.maximum}`,
    schema.default !== undefined && `default ${JSON.stringify(schema.default)}`,
  ].filter(Boolean);
  const type = Array.isArray(schema.type) ? schema.type.join(' or ') : (schema.type ?? 'any');
  return html`${type}${limits.length > 0 && ` (${limits.join('; ')})`}`;
}

/** The JSON a request or response carries, by media type. */
function content(value?: Json): Html | undefined {
  if (!value) return undefined;
  return html`${Object.entries(value).map(
    ([mediaType, media], index) => html`${index > 0 && html`<br>`}<code>${mediaType}</code>${media.schema && html`: ${schemaType(media.schema)}`}`,
  )}`;
}

function operationSection(method: string, path: string, operation: Json): Html {
  const id = `op-${operation.operationId}`;
  const parameters = (operation.parameters ?? []) as Json[];
  const scopes = (operation.security ?? [{}]).flatMap((requirement: Json) => Object.values(requirement).flat()) as string[];
  return html`<section class="operation" aria-labelledby="${id}">
<h3 id="${id}"><span class="method method-${method}">${method.toUpperCase()}</span> <code>${path}</code> ${operation.summary}</h3>
${description(operation.description)}
<p>${operation.security?.length === 0 ? 'No token needed.' : html`Needs a token with <code>${scopes.join(', ')}</code>.`}</p>
${
  parameters.length > 0 &&
  html`<h4>Parameters</h4>${table(
    ['Name', 'In', 'Type', 'Description'],
    parameters.map(
      (parameter) =>
        html`<tr><td><code>${parameter.name}</code>${parameter.required && ' (required)'}</td><td>${parameter.in}</td><td>${schemaType(parameter.schema)}</td><td>${text(parameter.description ?? '')}</td></tr>`,
    ),
  )}`
}
${operation.requestBody && html`<h4>Request body</h4><p>${content(operation.requestBody.content)}${operation.requestBody.required && ' (required)'}</p>`}
<h4>Responses</h4>
${table(
  ['Status', 'Body', 'Meaning'],
  Object.entries(operation.responses as Record<string, Json>).map(
    ([status, response]) => html`<tr><td>${status}</td><td>${content(response.content)}</td><td>${text(response.description)}</td></tr>`,
  ),
)}
</section>`;
}

/** An object schema's fields, or the schema in a few words when it has none. */
function fields(schema: Json): Html {
  const properties = Object.entries((schema.properties ?? {}) as Record<string, Json>);
  const required = new Set((schema.required ?? []) as string[]);
  if (properties.length === 0) return html`<p>${schemaType(schema)}</p>`;
  return table(
    ['Field', 'Type', 'Description'],
    properties.map(
      ([field, property]) =>
        html`<tr><td><code>${field}</code>${required.has(field) && ' (required)'}</td><td>${schemaType(property)}</td><td>${text(property.description ?? '')}</td></tr>`,
    ),
  );
}

function schemaSection(name: string, schema: Json): Html {
  const alternatives = (schema.anyOf ?? schema.oneOf) as Json[] | undefined;
  return html`<section class="schema" aria-labelledby="${schemaAnchor(name)}">
<h3 id="${schemaAnchor(name)}">${name}</h3>
${description(schema.description)}
${
  alternatives && !schema.properties
    ? alternatives.map(
        (alternative, index) =>
          html`<p>${index === 0 ? 'Either' : 'Or'}${alternative.description ? ': ' : ''}${alternative.description && text(alternative.description)}</p>${fields(alternative)}`,
      )
    : fields(schema)
}
</section>`;
}

/** The reference's HTML: the overview, the operations and the schemas, each a section. */
export function openApiReferenceHtml(document: Json): string {
  const operations = Object.entries(document.paths as Record<string, Json>).flatMap(([path, item]) =>
    METHODS.filter((method) => item[method]).map((method) => ({ method, path, operation: item[method] as Json })),
  );
  const schemas = Object.entries((document.components?.schemas ?? {}) as Record<string, Json>);
  return html`<section aria-labelledby="overview-heading">
<h2 id="overview-heading">Overview</h2>
${description(document.info.description)}
${description(document.components?.securitySchemes?.bearerAuth?.description)}
</section>
<section aria-labelledby="operations-heading">
<h2 id="operations-heading">Operations</h2>
<ul class="operation-index">${operations.map(
    ({ method, path, operation }) =>
      html`<li><a href="#op-${operation.operationId}"><span class="method method-${method}">${method.toUpperCase()}</span> <code>${path}</code> ${operation.summary}</a></li>`,
  )}</ul>
${operations.map(({ method, path, operation }) => operationSection(method, path, operation))}
</section>
<section aria-labelledby="schemas-heading">
<h2 id="schemas-heading">Schemas</h2>
${schemas.map(([name, schema]) => schemaSection(name, schema))}
</section>`.html;
}

// The document is built once per process (the docs page keeps it), and so is its HTML.
const rendered = new WeakMap<Json, string>();

/** The reference, given to React as HTML text (see above). */
export function OpenApiReference({ document }: { document: Json }) {
  let reference = rendered.get(document);
  if (reference === undefined) rendered.set(document, (reference = openApiReferenceHtml(document)));
  return <div className="api-reference" dangerouslySetInnerHTML={{ __html: reference }} />;
}
