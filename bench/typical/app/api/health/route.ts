// Answers 200 once the server is up: the bench waits for it, as it does for the Plant Store's own.
export function GET() {
  return Response.json({ status: 'ok' });
}
