// JSON:API error objects (notes §1.5). Handlers throw ApiError; the server turns it into a response, so no
// handler ever writes an error body by hand and every error has the same shape as the real service's.

export interface ErrorObject {
  /** A string, as the real service sends it (go-tfe v2 fails to decode a numeric status). */
  status: string;
  title: string;
  detail?: string;
  source?: { pointer?: string; parameter?: string };
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    readonly detail?: string,
    readonly source?: { pointer?: string; parameter?: string },
  ) {
    super(detail ? `${title}: ${detail}` : title);
  }

  toErrorObject(): ErrorObject {
    const object: ErrorObject = { status: String(this.status), title: this.title };
    if (this.detail !== undefined) object.detail = this.detail;
    if (this.source !== undefined) object.source = this.source;
    return object;
  }
}

/** 404 for anything missing OR forbidden: the service never tells a valid token "you may not" (notes §1.4). */
export const notFound = (detail?: string) => new ApiError(404, 'not found', detail);
export const unauthorized = () => new ApiError(401, 'unauthorized');
/** 422 with a JSON pointer to the offending member, e.g. `/data/attributes/key`. */
export const invalidAttribute = (detail: string, pointer?: string) =>
  new ApiError(422, 'invalid attribute', detail, pointer ? { pointer } : undefined);
/** 422 about a query parameter (e.g. `page[size]`). */
export const invalidParameter = (detail: string, parameter: string) =>
  new ApiError(422, 'invalid parameter', detail, { parameter });
export const badRequest = (detail: string) => new ApiError(400, 'bad request', detail);
/** Run actions in the wrong state (notes §1.5: no detail on the real service). */
export const transitionNotAllowed = () => new ApiError(409, 'transition not allowed');
export const forbidden = (detail?: string) => new ApiError(403, 'forbidden', detail);
export const unsupportedMediaType = () =>
  new ApiError(
    415,
    'unsupported media type',
    'Send the request body with Content-Type: application/vnd.api+json (required on POST, PATCH and DELETE, even without a body).',
  );

export function errorDocument(...errors: ApiError[]): { errors: ErrorObject[] } {
  return { errors: errors.map((error) => error.toErrorObject()) };
}
