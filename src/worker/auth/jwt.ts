import { SignJWT, jwtVerify } from 'jose';

export type Role = 'Normal' | 'Admin';

export interface AccessClaims {
  workspaceId: string;
  role: Role;
  /** Issued-at, seconds since the epoch. */
  issuedAt?: number;
}

const key = (secret: string) => new TextEncoder().encode(secret);

export async function issueAccessToken(secret: string, claims: AccessClaims, expiresInSeconds: number): Promise<string> {
  return new SignJWT({ role: claims.role })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(claims.workspaceId)
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + expiresInSeconds)
    .sign(key(secret));
}

/** Null for every kind of bad token (garbage, tampered, wrong key, alg none, expired). */
export async function verifyAccessToken(secret: string, token: string): Promise<AccessClaims | null> {
  try {
    const { payload } = await jwtVerify(token, key(secret), { algorithms: ['HS256'] });
    if (typeof payload.sub !== 'string' || (payload.role !== 'Normal' && payload.role !== 'Admin')) return null;
    return { workspaceId: payload.sub, role: payload.role, issuedAt: payload.iat };
  } catch {
    return null;
  }
}
