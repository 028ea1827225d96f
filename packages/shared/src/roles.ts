/** Usage profiles a user switches between, plus the admin role (ARCHITECTURE.md, Roles). */
export const PROFILES = ['site', 'api'] as const;
export type Profile = (typeof PROFILES)[number];
export const ROLES = ['site', 'api', 'admin'] as const;
export type Role = (typeof ROLES)[number];

export function hasAnyRole(userRoles: readonly string[], allowed: readonly string[] | undefined): boolean {
  if (!allowed || allowed.length === 0) return true;
  return allowed.some((role) => userRoles.includes(role));
}
