// Browsers ask for /favicon.ico on their own where they find no icon they will use (Chromium does on
// the 403 "Admins only" page, whose head names /icon.svg all the same): the site's one icon,
// app/icon.svg, answers there too, rather than a 404 in the browser's console.
const ONE_DAY = 'public, max-age=86400';

export function GET(): Response {
  // A relative Location: never an origin made from the request's Host.
  return new Response(null, { status: 308, headers: { location: '/icon.svg', 'cache-control': ONE_DAY } });
}
