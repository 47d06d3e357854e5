// The QR code of an otpauth:// URI, drawn on the server as SVG (the `qrcode` library), and handed
// to the page as a data: URL for an <img> (the Content-Security-Policy allows data: images), so no
// QR code library reaches the browser.
import 'server-only';
import QRCode from 'qrcode';

export async function qrCodeDataUrl(text: string): Promise<string> {
  const svg = await QRCode.toString(text, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
}
