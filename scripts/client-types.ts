import openapiTS, { astToString, type OpenAPI3 } from "openapi-typescript";

/** Where the typed client's generated types live (checked in; `npm test` fails when they drift). */
export const CLIENT_TYPES_PATH = "client/src/schema.d.ts";

const HEADER = `/**
 * Generated from keyproof's OpenAPI document by \`npm run client:generate\`; do not edit.
 * \`npm test\` fails when this file no longer matches the document the Worker serves.
 */
`;

/** The TypeScript types openapi-typescript makes of the served document. */
export async function clientTypes(document: unknown): Promise<string> {
  // The origin the document names depends on where it was served from; the types do not.
  const { servers: _servers, ...portable } = document as OpenAPI3 & { servers?: unknown };
  // A field with a default may be left out of a request, so it stays optional in the types.
  const ast = await openapiTS(portable as OpenAPI3, {
    alphabetize: true,
    defaultNonNullable: false,
  });
  return HEADER + astToString(ast);
}
