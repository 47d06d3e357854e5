export default function Home() {
  return (
    <main>
      <h1>Plant Store</h1>
      <p>
        The API serves <code>POST /plants</code> with a bearer token. Its description is at{' '}
        <a href="/openapi.json">/openapi.json</a>.
      </p>
    </main>
  );
}
