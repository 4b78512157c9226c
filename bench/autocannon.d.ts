/**
 * Shadows @types/autocannon 7 for lib/load-window.ts, which calls autocannon without a callback
 * (the instance is then a thenable emitter; @types says a plain promise) and reads the 'response'
 * event's client argument (@types leaves it out). lib/load.ts uses only what @types declares:
 * delete this file once load-window.ts does too. A script (no top-level import), so that it
 * declares the module rather than augmenting it.
 */
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';
  namespace autocannon {
    interface Request {
      method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
      path?: string;
      headers?: Record<string, string>;
      body?: string | Buffer;
      setupRequest?: (request: Request) => Request;
      onResponse?: (status: number, body: string) => void;
    }
    type RequestParams = Request;
    interface Options extends Omit<Request, 'setupRequest' | 'onResponse'> {
      url: string;
      connections?: number;
      duration?: number;
      timeout?: number;
      requests?: Request[];
    }
    interface Result {
      duration: number;
      errors: number;
    }
    interface Instance extends EventEmitter, PromiseLike<Result> {
      stop(): void;
    }
  }
  function autocannon(options: autocannon.Options, callback?: (error: Error | null, result: autocannon.Result) => void): autocannon.Instance;
  export = autocannon;
}
