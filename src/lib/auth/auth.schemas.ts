/**
 * The sign-in, sign-up and verification forms' rules, with SPEC §5's exact messages. The identity
 * service checks the same things again (and its own password policy); these give the messages.
 */
import { z } from 'zod';
import { email } from '../../shared/schemas/fields.ts';

const requiredUsername = z.string().trim().min(1, 'Username is required');

export const signInSchema = z.object({
  username: requiredUsername,
  password: z.string().min(1, 'Password is required'),
});
export type SignInValues = z.infer<typeof signInSchema>;

const passwords = z.object({
  password: z.string().min(8, 'Password must be at least 8 characters'),
  confirmPassword: z.string().min(1, 'Please confirm your password'),
});

export const signUpSchema = z
  .object({
    username: z.string().trim().min(3, 'Username must be at least 3 characters'),
    email,
    ...passwords.shape,
  })
  .refine((v) => v.password === v.confirmPassword, {
    error: "Passwords don't match",
    path: ['confirmPassword'],
    // Checked as soon as both passwords are valid, whatever the other fields say.
    when: (payload) => passwords.safeParse(payload.value).success,
  });
export type SignUpValues = z.infer<typeof signUpSchema>;

/** An admin invitation's page (docs/decisions/041): sign-up's rules and messages, the address fixed by the invitation. */
export const acceptInvitationSchema = z
  .object({
    username: z.string().trim().min(3, 'Username must be at least 3 characters'),
    ...passwords.shape,
  })
  .refine((v) => v.password === v.confirmPassword, {
    error: "Passwords don't match",
    path: ['confirmPassword'],
    when: (payload) => passwords.safeParse(payload.value).success,
  });
export type AcceptInvitationValues = z.infer<typeof acceptInvitationSchema>;

export const verifyEmailSchema = z.object({
  username: requiredUsername,
  // SPEC §5: "code at least 6 characters", message 'Verification code must be 6 digits'.
  code: z.string().trim().min(6, 'Verification code must be 6 digits'),
});
export type VerifyEmailValues = z.infer<typeof verifyEmailSchema>;

/** Forgot password, first step: whose password (the code goes to that account's verified address). */
export const resetRequestSchema = z.object({ username: requiredUsername });
export type ResetRequestValues = z.infer<typeof resetRequestSchema>;

/** Forgot password, second step: the emailed code and the new password, twice. */
export const resetPasswordSchema = z
  .object({
    username: requiredUsername,
    code: z.string().trim().min(6, 'Verification code must be 6 digits'),
    ...passwords.shape,
  })
  .refine((v) => v.password === v.confirmPassword, {
    error: "Passwords don't match",
    path: ['confirmPassword'],
    when: (payload) => passwords.safeParse(payload.value).success,
  });
export type ResetPasswordValues = z.infer<typeof resetPasswordSchema>;

/** Two-step verification at sign-in: the 6-digit code the authenticator app shows (TOTP, RFC 6238). */
export const authenticatorCodeSchema = z.object({
  code: z
    .string()
    .transform((value) => value.replace(/\s/g, ''))
    .pipe(z.string().regex(/^\d{6}$/, 'Enter the 6-digit code from your authenticator app')),
});
export type AuthenticatorCodeValues = z.input<typeof authenticatorCodeSchema>;
