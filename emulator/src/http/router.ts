// Method + path pattern → handler. Patterns are literal segments and `:name` parameters; when two routes
// match, the one with more literal segments wins (`/workspaces/change-requests/:id` beats `/workspaces/:id/:x`).
import type { AuthedContext, Handler, RequestContext } from './context';

/** Which rate-limit bucket a route counts against (spec §8). */
export type RateLimitGroup = 'default' | 'run-lists';

export interface RouteOptions {
  rateLimit?: RateLimitGroup;
  /** The status for a body that is not JSON: 400 unless the spec gives the operation another (create run: 422). */
  unparseableBodyStatus?: 400 | 422;
}

export interface Route {
  method: string;
  pattern: string;
  segments: string[];
  /** false for ping, discovery and upload URLs. */
  requiresAuth: boolean;
  handler: Handler<RequestContext>;
  rateLimit: RateLimitGroup;
  unparseableBodyStatus: 400 | 422;
}

export interface RouteMatch {
  route: Route;
  params: Record<string, string>;
}

export class Router {
  private readonly routes: Route[] = [];

  /** A route that needs a valid token (401 otherwise); `pattern` is the full path, e.g. `/api/v2/vars/:id`. */
  add(method: string, pattern: string, handler: Handler<AuthedContext>, options: RouteOptions = {}): void {
    this.register(method, pattern, handler as Handler<RequestContext>, true, options);
  }

  /** A route that answers without a token (the caller is still resolved when one is sent). */
  addPublic(method: string, pattern: string, handler: Handler<RequestContext>, options: RouteOptions = {}): void {
    this.register(method, pattern, handler, false, options);
  }

  private register(method: string, pattern: string, handler: Handler<RequestContext>, requiresAuth: boolean, options: RouteOptions): void {
    const segments = splitPath(pattern);
    // Parameter names do not matter for matching: `/x/:id` and `/x/:name` would shadow each other.
    const shape = (parts: string[]) => parts.map((p) => (p.startsWith(':') ? ':' : p)).join('/');
    const duplicate = this.routes.find((r) => r.method === method && shape(r.segments) === shape(segments));
    if (duplicate) throw new Error(`Route ${method} ${pattern} is registered twice`);
    this.routes.push({ method, pattern, segments, requiresAuth, handler, rateLimit: options.rateLimit ?? 'default', unparseableBodyStatus: options.unparseableBodyStatus ?? 400 });
  }

  match(method: string, path: string): RouteMatch | undefined {
    const segments = splitPath(path);
    let best: { match: RouteMatch; literals: number } | undefined;
    for (const route of this.routes) {
      if (route.method !== method || route.segments.length !== segments.length) continue;
      const params = matchSegments(route.segments, segments);
      if (!params) continue;
      const literals = route.segments.filter((s) => !s.startsWith(':')).length;
      if (!best || literals > best.literals) best = { match: { route, params }, literals };
    }
    return best?.match;
  }
}

function splitPath(path: string): string[] {
  return path.split('/').filter((segment) => segment.length > 0);
}

function matchSegments(pattern: string[], actual: string[]): Record<string, string> | undefined {
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    let value: string;
    try {
      value = decodeURIComponent(actual[i]);
    } catch {
      return undefined; // a malformed escape matches nothing: 404, not a crash
    }
    if (pattern[i].startsWith(':')) params[pattern[i].slice(1)] = value;
    else if (pattern[i] !== value) return undefined;
  }
  return params;
}
