// Errors the server answers with, shaped like OpenAI's: { error: { message, type, param, code } }.

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly param: string | null = null,
    readonly code: string | null = null,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = "HttpError";
  }
}

export interface ErrorBody {
  error: { message: string; type: string; param: string | null; code: string | null };
}

export function errorBody(status: number, message: string, param: string | null, code: string | null): ErrorBody {
  const type = status >= 500 ? "server_error" : "invalid_request_error";
  return { error: { message, type, param, code } };
}

export const badRequest = (message: string, param: string | null = null): HttpError =>
  new HttpError(400, message, param, "invalid_request");
