// Pipelined requests on one connection are served one after another. Node parses a pipelined
// request as soon as its bytes arrive and hands it to the server at once, while the previous one is
// still being answered: a create followed by a read of it, pipelined, had the read run first and
// answer 404, on both paths. RFC 9112 §9.3.2 allows serving pipelined requests side by side only
// when all are safe; serving each connection's requests in turn is simpler, and a client that does
// not pipeline (the usual case) never waits: it costs a listener per request.
const WAITING = Symbol('requests waiting their turn');

/** Runs `serve` now, or once the connection's earlier requests have been answered. */
export function inTurn(request, response, serve) {
  const socket = request.socket;
  if (socket[WAITING]) return void socket[WAITING].push(() => start(socket, response, serve));
  socket[WAITING] = [];
  start(socket, response, serve);
}

function start(socket, response, serve) {
  // 'close' comes when the answer is sent, or when the connection ends first: then nobody is
  // left to answer, and the requests still waiting are dropped unserved.
  response.once('close', () => {
    const next = socket.destroyed ? undefined : socket[WAITING]?.shift();
    if (next) next();
    else socket[WAITING] = undefined;
  });
  serve();
}
