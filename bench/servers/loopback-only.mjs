// Preloaded into a third-party server (node --import) that binds every interface by default:
// forces its listeners onto 127.0.0.1 so a bench run never opens a port beyond loopback.
import net from 'node:net';

const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function listenOnLoopback(...args) {
  if (typeof args[0] === 'object' && args[0] !== null) {
    args[0] = { ...args[0], host: '127.0.0.1' };
  } else if (typeof args[0] === 'number' || typeof args[0] === 'string') {
    const [port, ...rest] = args;
    const callback = rest.find((arg) => typeof arg === 'function');
    const backlog = rest.find((arg) => typeof arg === 'number');
    return listen.call(this, { port: Number(port), host: '127.0.0.1', backlog }, callback);
  }
  return listen.apply(this, args);
};
