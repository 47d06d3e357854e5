// The origin a client used to reach us. Next's request.url names the address the server bound
// (often "localhost"), not the one in the client's Host header, which is what a client can use.
const HOST = /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;

export function requestOrigin(request: Request): string {
  const url = new URL(request.url);
  const host = request.headers.get('x-forwarded-host') ?? request.headers.get('host');
  const proto = request.headers.get('x-forwarded-proto')?.split(',')[0].trim();
  const protocol = proto === 'https' || proto === 'http' ? `${proto}:` : url.protocol;
  return host && HOST.test(host) ? `${protocol}//${host}` : url.origin;
}
