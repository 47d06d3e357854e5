// The API reference as plain HTML, rendered on the server from the published OpenAPI document:
// the overview, every operation (method, path, summary, scope, parameters, body, responses) and
// the schemas. No script: the interactive explorer (Swagger UI) is loaded only when asked.
import { Fragment, type ReactNode } from 'react';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** Text with `code` spans, as the document's descriptions write them. */
function Text({ children }: { children: string }) {
  return (
    <>
      {children.split(/(`[^`]+`)/).map((part, index) =>
        part.startsWith('`') && part.endsWith('`') && part.length > 1 ? <code key={index}>{part.slice(1, -1)}</code> : <Fragment key={index}>{part}</Fragment>,
      )}
    </>
  );
}

/** A table that scrolls sideways on a narrow screen, with a header row of `columns`; `children` are its rows. */
function Table({ columns, children }: { columns: string[]; children: ReactNode }) {
  return (
    <div className="table-scroll">
      <table>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column} scope="col">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

/** A description: paragraphs, and the Markdown tables among them (the error catalogue). */
function Description({ text }: { text?: string }) {
  if (!text) return null;
  return (
    <>
      {text.split(/\n\n+/).map((block, index) => {
        const lines = block.split('\n');
        if (lines.length > 2 && lines.every((line) => line.startsWith('|'))) {
          const cells = (line: string) => line.replace(/^\||\|$/g, '').split('|').map((cell) => cell.trim());
          const [head, , ...rows] = lines;
          return (
            <Table key={index} columns={cells(head)}>
              {rows.map((row) => (
                <tr key={row}>
                  {cells(row).map((cell, column) => (
                    <td key={column}>
                      <Text>{cell}</Text>
                    </td>
                  ))}
                </tr>
              ))}
            </Table>
          );
        }
        return (
          <p key={index}>
            <Text>{block}</Text>
          </p>
        );
      })}
    </>
  );
}

const schemaName = (ref: string) => ref.split('/').at(-1)!;
const schemaAnchor = (name: string) => `schema-${name}`;

/** A schema in a few words: its type (a link for a named schema) and its limits. */
function SchemaType({ schema }: { schema?: Json }): ReactNode {
  if (!schema) return null;
  if (schema.$ref) {
    const name = schemaName(schema.$ref);
    return <a href={`#${schemaAnchor(name)}`}>{name}</a>;
  }
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) {
    return (alternatives as Json[]).map((alternative, index) => (
      <Fragment key={index}>
        {index > 0 && ' or '}
        <SchemaType schema={alternative} />
      </Fragment>
    ));
  }
  if (schema.const !== undefined) return <code>{JSON.stringify(schema.const)}</code>;
  if (schema.type === 'array') {
    return (
      <>
        array of <SchemaType schema={schema.items} />
        {schema.maxItems !== undefined && `, at most ${schema.maxItems}`}
      </>
    );
  }
  const limits = [
    schema.format,
    schema.enum && `one of ${(schema.enum as unknown[]).map((value) => JSON.stringify(value)).join(', ')}`,
    schema.minLength !== undefined && `${schema.minLength}–${schema.maxLength ?? '…'} characters`,
    schema.minLength === undefined && schema.maxLength !== undefined && `at most ${schema.maxLength} characters`,
    schema.type === 'integer' && schema.format === undefined && schema.minimum !== undefined && `${schema.minimum} to ${schema.maximum}`,
    schema.default !== undefined && `default ${JSON.stringify(schema.default)}`,
  ].filter(Boolean);
  const type = Array.isArray(schema.type) ? schema.type.join(' or ') : (schema.type ?? 'any');
  return (
    <>
      {type}
      {limits.length > 0 && ` (${limits.join('; ')})`}
    </>
  );
}

/** The JSON a request or response carries, by media type. */
function Content({ content }: { content?: Json }) {
  if (!content) return null;
  return (
    <>
      {Object.entries(content).map(([mediaType, media], index) => (
        <Fragment key={mediaType}>
          {index > 0 && <br />}
          <code>{mediaType}</code>
          {media.schema && (
            <>
              {': '}
              <SchemaType schema={media.schema} />
            </>
          )}
        </Fragment>
      ))}
    </>
  );
}

function Operation({ method, path, operation }: { method: string; path: string; operation: Json }) {
  const id = `op-${operation.operationId}`;
  const parameters = (operation.parameters ?? []) as Json[];
  const scopes = (operation.security ?? [{}]).flatMap((requirement: Json) => Object.values(requirement).flat()) as string[];
  return (
    <section className="operation" aria-labelledby={id}>
      <h3 id={id}>
        <span className={`method method-${method}`}>{method.toUpperCase()}</span> <code>{path}</code> {operation.summary}
      </h3>
      <Description text={operation.description} />
      <p>
        {operation.security?.length === 0 ? (
          'No token needed.'
        ) : (
          <>
            Needs a token with <code>{scopes.join(', ')}</code>.
          </>
        )}
      </p>
      {parameters.length > 0 && (
        <>
          <h4>Parameters</h4>
          <Table columns={['Name', 'In', 'Type', 'Description']}>
            {parameters.map((parameter) => (
              <tr key={`${parameter.in} ${parameter.name}`}>
                <td>
                  <code>{parameter.name}</code>
                  {parameter.required && ' (required)'}
                </td>
                <td>{parameter.in}</td>
                <td>
                  <SchemaType schema={parameter.schema} />
                </td>
                <td>
                  <Text>{parameter.description ?? ''}</Text>
                </td>
              </tr>
            ))}
          </Table>
        </>
      )}
      {operation.requestBody && (
        <>
          <h4>Request body</h4>
          <p>
            <Content content={operation.requestBody.content} />
            {operation.requestBody.required && ' (required)'}
          </p>
        </>
      )}
      <h4>Responses</h4>
      <Table columns={['Status', 'Body', 'Meaning']}>
        {Object.entries(operation.responses as Record<string, Json>).map(([status, response]) => (
          <tr key={status}>
            <td>{status}</td>
            <td>
              <Content content={response.content} />
            </td>
            <td>
              <Text>{response.description}</Text>
            </td>
          </tr>
        ))}
      </Table>
    </section>
  );
}

/** An object schema's fields, or the schema in a few words when it has none. */
function Fields({ schema }: { schema: Json }) {
  const properties = Object.entries((schema.properties ?? {}) as Record<string, Json>);
  const required = new Set((schema.required ?? []) as string[]);
  if (properties.length === 0) {
    return (
      <p>
        <SchemaType schema={schema} />
      </p>
    );
  }
  return (
    <Table columns={['Field', 'Type', 'Description']}>
      {properties.map(([field, property]) => (
        <tr key={field}>
          <td>
            <code>{field}</code>
            {required.has(field) && ' (required)'}
          </td>
          <td>
            <SchemaType schema={property} />
          </td>
          <td>
            <Text>{property.description ?? ''}</Text>
          </td>
        </tr>
      ))}
    </Table>
  );
}

function Schema({ name, schema }: { name: string; schema: Json }) {
  const alternatives = (schema.anyOf ?? schema.oneOf) as Json[] | undefined;
  return (
    <section aria-labelledby={schemaAnchor(name)}>
      <h3 id={schemaAnchor(name)}>{name}</h3>
      <Description text={schema.description} />
      {alternatives && !schema.properties ? (
        alternatives.map((alternative, index) => (
          <Fragment key={index}>
            <p>
              {index === 0 ? 'Either' : 'Or'}
              {alternative.description ? ': ' : ''}
              {alternative.description && <Text>{alternative.description}</Text>}
            </p>
            <Fields schema={alternative} />
          </Fragment>
        ))
      ) : (
        <Fields schema={schema} />
      )}
    </section>
  );
}

export function OpenApiReference({ document }: { document: Json }) {
  const operations = Object.entries(document.paths as Record<string, Json>).flatMap(([path, item]) =>
    METHODS.filter((method) => item[method]).map((method) => ({ method, path, operation: item[method] as Json })),
  );
  const schemas = Object.entries((document.components?.schemas ?? {}) as Record<string, Json>);
  return (
    <>
      <section aria-labelledby="overview-heading">
        <h2 id="overview-heading">Overview</h2>
        <Description text={document.info.description} />
        <Description text={document.components?.securitySchemes?.bearerAuth?.description} />
      </section>
      <section aria-labelledby="operations-heading">
        <h2 id="operations-heading">Operations</h2>
        <ul className="operation-index">
          {operations.map(({ method, path, operation }) => (
            <li key={`${method} ${path}`}>
              <a href={`#op-${operation.operationId}`}>
                <span className={`method method-${method}`}>{method.toUpperCase()}</span> <code>{path}</code> {operation.summary}
              </a>
            </li>
          ))}
        </ul>
        {operations.map(({ method, path, operation }) => (
          <Operation key={`${method} ${path}`} method={method} path={path} operation={operation} />
        ))}
      </section>
      <section aria-labelledby="schemas-heading">
        <h2 id="schemas-heading">Schemas</h2>
        {schemas.map(([name, schema]) => (
          <Schema key={name} name={name} schema={schema} />
        ))}
      </section>
    </>
  );
}
