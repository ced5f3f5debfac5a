// One proxied request as the upstream client sees it: the answer streamed to the client with back-pressure
// both ways. Any failure before the answer began is a 502; once its head is out, the only honest signal is
// to cut the client's connection (an upstream dying mid-body leaves the client with a short body, never a
// complete-looking one). A client that goes away ends the exchange, which frees the upstream connection.
import type { UpstreamController, UpstreamHandler } from '../../shared/upstream-client/pooled-connection.ts';
import type { Request, Response } from '../site/handler.ts';
import { sendText } from '../site/send.ts';
import { clientHeaders } from './proxy-headers.ts';

const BAD_GATEWAY = 'Bad Gateway';
const CLIENT_GONE = new Error('the client closed the connection');

export class ProxyExchange implements UpstreamHandler {
  readonly #req: Request;
  readonly #res: Response;
  #controller: UpstreamController | undefined;
  #clientGone = false;
  #answered = false;

  constructor(req: Request, res: Response) {
    this.#req = req;
    this.#res = res;
    res.once('close', () => this.#closed());
  }

  #closed(): void {
    if (this.#res.writableFinished) return;
    this.#clientGone = true;
    this.#controller?.abort(CLIENT_GONE);
  }

  onRequestStart(controller: UpstreamController): void {
    this.#controller = controller;
    if (this.#clientGone) controller.abort(CLIENT_GONE);
  }

  onResponseStart(controller: UpstreamController, status: number, headers: string[]): void {
    this.#answered = true;
    const res = this.#res;
    try {
      res.writeHead(status, clientHeaders(this.#req, res, headers));
    } catch (error) {
      // An answer node:http will not write (a status below 100): the client's connection is cut.
      controller.abort(error as Error);
    }
  }

  onResponseData(controller: UpstreamController, chunk: Buffer): void {
    if (!this.#res.write(chunk)) {
      controller.pause();
      this.#res.once('drain', () => controller.resume());
    }
  }

  onResponseEnd(): void {
    this.#res.end();
  }

  onResponseError(_controller: UpstreamController, _error: Error): void {
    // A client gone mid-upload also fails the exchange (its body was cut): there is no one left to answer.
    if (this.#clientGone || this.#res.destroyed) return;
    if (this.#answered) this.#res.destroy();
    else sendText(this.#res, 502, BAD_GATEWAY);
  }
}
