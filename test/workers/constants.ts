/**
 * Values shared by the workers Vitest config (Node side) and the tests (workerd side).
 * Pure constants only: this file is imported in both runtimes.
 */
export const TEST_ADMIN_WORKSPACE_ID = 'aaaaaaaa-0000-4000-8000-000000000001';
export const TEST_JWT_SECRET = 'test-jwt-signing-key-0123456789abcdef0123456789';
export const TEST_BRIDGE_SECRET = 'test-bridge-secret-0123456789abcdef';
export const TEST_ADMIN_SECRET = 'test-admin-secret-0123456789abcdef';
