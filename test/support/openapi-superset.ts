// Checks that one OpenAPI document promises at least everything another does: every operation,
// request body, response status, schema constraint and security scheme of the contract.
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;

function deref(doc: Json, schema: Json | undefined): Json | undefined {
  let current = schema;
  const seen = new Set<string>();
  while (current?.$ref) {
    const ref: string = current.$ref;
    if (seen.has(ref)) throw new Error(`cyclic $ref ${ref}`);
    seen.add(ref);
    current = ref.replace(/^#\//, '').split('/').reduce((node: Json | undefined, key) => node?.[key], doc);
  }
  return current;
}

/** A schema with its $refs followed and its allOf parts merged into one. */
function flatten(doc: Json, schema: Json | undefined): Json {
  const resolved = deref(doc, schema) ?? {};
  const parts = [resolved, ...((resolved.allOf as Json[] | undefined) ?? []).map((part) => flatten(doc, part))];
  const merged: Json = { required: [] as string[], properties: {} as Json };
  for (const part of parts) {
    for (const [key, value] of Object.entries(part)) {
      if (key === 'allOf') continue;
      if (key === 'required') merged.required.push(...(value as string[]));
      else if (key === 'properties') Object.assign(merged.properties, value);
      else merged[key] ??= value;
    }
  }
  return merged;
}

const typesOf = (schema: Json): string[] => (Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : []);

function coverSchema(specDoc: Json, spec: Json | undefined, ourDoc: Json, ours: Json | undefined, where: string): string[] {
  const want = flatten(specDoc, spec);
  const have = flatten(ourDoc, ours);
  const problems: string[] = [];
  for (const type of typesOf(want)) if (!typesOf(have).includes(type)) problems.push(`${where}: type ${type} expected, found ${typesOf(have).join('|') || 'none'}`);
  if (want.format && want.format !== have.format) problems.push(`${where}: format ${want.format} expected, found ${have.format ?? 'none'}`);
  for (const field of want.required) if (!have.required.includes(field)) problems.push(`${where}: field ${field} must be required`);
  for (const [name, property] of Object.entries(want.properties as Json)) {
    if (!(name in have.properties)) problems.push(`${where}: property ${name} is missing`);
    else problems.push(...coverSchema(specDoc, property, ourDoc, have.properties[name], `${where}.${name}`));
  }
  if (want.items) problems.push(...coverSchema(specDoc, want.items, ourDoc, have.items, `${where}[]`));
  return problems;
}

function coverContent(specDoc: Json, spec: Json | undefined, ourDoc: Json, ours: Json | undefined, where: string): string[] {
  const problems: string[] = [];
  for (const [mediaType, media] of Object.entries((spec ?? {}) as Json)) {
    const match = ours?.[mediaType];
    if (!match) problems.push(`${where}: no ${mediaType} content`);
    else problems.push(...coverSchema(specDoc, media.schema, ourDoc, match.schema, `${where} ${mediaType}`));
  }
  return problems;
}

/** Every way `ours` falls short of promising what `spec` promises; empty when it is a superset. */
export function supersetProblems(spec: Json, ours: Json): string[] {
  const problems: string[] = [];
  if (spec.info?.version !== ours.info?.version) problems.push(`info.version ${spec.info?.version} expected, found ${ours.info?.version}`);

  for (const [name, scheme] of Object.entries((spec.components?.securitySchemes ?? {}) as Json)) {
    const match = ours.components?.securitySchemes?.[name];
    if (!match) problems.push(`security scheme ${name} is missing`);
    else if (match.type !== scheme.type || match.scheme?.toLowerCase() !== scheme.scheme?.toLowerCase()) {
      problems.push(`security scheme ${name} must be ${scheme.type}/${scheme.scheme}`);
    }
  }

  for (const [path, specItem] of Object.entries((spec.paths ?? {}) as Json)) {
    for (const method of METHODS) {
      const specOperation = specItem[method];
      if (!specOperation) continue;
      const where = `${method.toUpperCase()} ${path}`;
      const operation = ours.paths?.[path]?.[method];
      if (!operation) {
        problems.push(`${where} is missing`);
        continue;
      }
      if (specOperation.operationId && specOperation.operationId !== operation.operationId) {
        problems.push(`${where}: operationId ${specOperation.operationId} expected`);
      }
      const wantedSecurity = specOperation.security ?? spec.security ?? [];
      const haveSecurity: Json[] = operation.security ?? ours.security ?? [];
      for (const requirement of wantedSecurity) {
        for (const scheme of Object.keys(requirement)) {
          if (!haveSecurity.some((have) => scheme in have)) problems.push(`${where}: must require ${scheme}`);
        }
      }
      const specBody = deref(spec, specOperation.requestBody);
      if (specBody) {
        const body = deref(ours, operation.requestBody);
        if (!body) problems.push(`${where}: request body is missing`);
        else {
          if (specBody.required && !body.required) problems.push(`${where}: request body must be required`);
          problems.push(...coverContent(spec, specBody.content, ours, body.content, `${where} request`));
        }
      }
      for (const [status, specResponse] of Object.entries((specOperation.responses ?? {}) as Json)) {
        const response = deref(ours, operation.responses?.[status]);
        if (!response) problems.push(`${where}: response ${status} is missing`);
        else problems.push(...coverContent(spec, deref(spec, specResponse)?.content, ours, response.content, `${where} ${status}`));
      }
    }
  }
  return problems;
}
