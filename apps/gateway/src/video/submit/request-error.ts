/** A refused field: the route renders it as a 400 `invalid_request_error` naming `param`. */
export class VideoRequestError extends Error {
  constructor(
    readonly param: string,
    message: string,
    readonly code: string = 'unsupported_value',
  ) {
    super(message);
    this.name = 'VideoRequestError';
  }
}
