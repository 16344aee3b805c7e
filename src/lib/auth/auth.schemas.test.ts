import { describe, expect, it } from 'vitest';
import { acceptInvitationSchema, authenticatorCodeSchema, signInSchema, signUpSchema, verifyEmailSchema } from './auth.schemas.ts';

function messages(result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) {
  return Object.fromEntries((result.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]));
}

describe('SPEC §5 sign-in, sign-up and verification rules', () => {
  it('sign in needs a username and a password', () => {
    expect(messages(signInSchema.safeParse({ username: ' ', password: '' }))).toEqual({
      username: 'Username is required',
      password: 'Password is required',
    });
    expect(signInSchema.safeParse({ username: 'ana', password: 'x' }).success).toBe(true);
  });

  it('sign up checks length, e-mail and confirmation', () => {
    expect(messages(signUpSchema.safeParse({ username: 'ab', email: 'nope', password: 'short', confirmPassword: '' }))).toEqual({
      username: 'Username must be at least 3 characters',
      email: 'Please enter a valid email address',
      password: 'Password must be at least 8 characters',
      confirmPassword: 'Please confirm your password',
    });
  });

  it("shows 'Passwords don't match' on the confirmation field, even while other fields are invalid", () => {
    expect(messages(signUpSchema.safeParse({ username: 'ab', email: 'a@b.co', password: 'longenough', confirmPassword: 'different1' }))).toEqual({
      username: 'Username must be at least 3 characters',
      confirmPassword: "Passwords don't match",
    });
    expect(signUpSchema.safeParse({ username: 'ana', email: 'a@b.co', password: 'longenough', confirmPassword: 'longenough' }).success).toBe(true);
  });

  it('verification needs a username and a 6-character code', () => {
    expect(messages(verifyEmailSchema.safeParse({ username: '', code: '123' }))).toEqual({
      username: 'Username is required',
      code: 'Verification code must be 6 digits',
    });
    expect(verifyEmailSchema.parse({ username: ' ana ', code: ' 123456 ' })).toEqual({ username: 'ana', code: '123456' });
  });

  it('two-step verification takes six digits, spaces allowed as authenticator apps show them', () => {
    expect(authenticatorCodeSchema.parse({ code: '123 456' })).toEqual({ code: '123456' });
    for (const code of ['', '12345', '1234567', 'abcdef']) {
      expect(messages(authenticatorCodeSchema.safeParse({ code }))).toEqual({ code: 'Enter the 6-digit code from your authenticator app' });
    }
  });

  it('an invitation asks for a username and a password as sign-up does, with its messages', () => {
    expect(messages(acceptInvitationSchema.safeParse({ username: 'ab', password: 'short', confirmPassword: '' }))).toEqual({
      username: 'Username must be at least 3 characters',
      password: 'Password must be at least 8 characters',
      confirmPassword: 'Please confirm your password',
    });
    expect(messages(acceptInvitationSchema.safeParse({ username: 'dana', password: 'longenough', confirmPassword: 'different1' }))).toEqual({
      confirmPassword: "Passwords don't match",
    });
    expect(acceptInvitationSchema.parse({ username: ' dana ', password: 'longenough', confirmPassword: 'longenough' }).username).toBe('dana');
  });
});
