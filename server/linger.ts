// Lingering close. When the server ends a connection after an answer that came before the request's
// body had all arrived (a 413 that stopped reading mid-upload, on a connection the client asked to
// close), Node closes the socket as soon as the answer is written. What the client still sends then
// meets a closed socket, its TCP stack answers with a reset, and the client's next write fails,
// often before it has read the 413 that says why. So the server's side is shut after the answer
// (FIN) and the connection stays open to be read, what the client still sends dropped, until the
// client closes or LINGER_MS have passed (as Apache and nginx do, and RFC 9112 §9.6 advises).
import type { Socket } from 'node:net';

const LINGER_MS = 1000;

/** The server's 'connection' listener (once per socket): Node's http server closes a socket with destroySoon(). */
export function lingerBeforeClosing(socket: Socket): void {
  (socket as Socket & { destroySoon: () => void }).destroySoon = function lingeringDestroySoon(this: Socket) {
    // A client that has closed its side already sends nothing more.
    if (this.readableEnded) return void (this.writableFinished ? this.destroy() : this.end(() => this.destroy()));
    if (this.writable) this.end();
    const timer = setTimeout(() => this.destroy(), LINGER_MS);
    this.once('end', () => this.destroy());
    this.once('close', () => clearTimeout(timer));
  };
}
