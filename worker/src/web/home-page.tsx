import { Layout } from "./layout.tsx";

export function homePage() {
  return (
    <Layout title="Home">
      <h1>keyproof</h1>
      <p>
        Prove that a person controls an SSH private key. Create a session over the API, hand the
        user its <code>ssh</code> command, and read which keys they proved.
      </p>
      <ul>
        <li>
          <a href="/docs">API reference</a>
        </li>
        <li>
          <a href="/api/v1/openapi.json">OpenAPI 3.1 document</a>
        </li>
      </ul>
    </Layout>
  );
}
