/** A Cognito error: HTTP 400 with `__type` and `message`, as aws-amplify and the AWS SDK read them. */
export class IdentityError extends Error {
  readonly type: string;
  constructor(type: string, message: string) {
    super(message);
    this.type = type;
  }
}

export const fail = (type: string, message: string): never => {
  throw new IdentityError(type, message);
};
