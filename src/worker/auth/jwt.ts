import { SignJWT, jwtVerify } from 'jose';

export type Role = 'Normal' | 'Admin';

export interface AccessClaims {
  workspaceId: string;
  role: Role;
  /** Issued-at, seconds since the epoch. */
  issuedAt?: number;
  /**
   * The workspace's `created_at` when the token was issued: ids are caller-chosen, so a
   * workspace deleted and created again with the same id is another instance, which tokens of
   * the earlier one must not open. Absent in tokens issued before this claim existed.
   */
  workspaceInstance?: string;
}

const key = (secret: string) => new TextEncoder().encode(secret);

export async function issueAccessToken(secret: string, claims: AccessClaims, expiresInSeconds: number): Promise<string> {
  return new SignJWT({ role: claims.role, ...(claims.workspaceInstance ? { wsi: claims.workspaceInstance } : {}) })
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
    return { workspaceId: payload.sub, role: payload.role, issuedAt: payload.iat, workspaceInstance: typeof payload.wsi === 'string' ? payload.wsi : undefined };
  } catch {
    return null;
  }
}
