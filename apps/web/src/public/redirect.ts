/** Where to go after signing in: the `redirect` parameter when it is a path on this site, else the dashboard. */
export function redirectTarget(params: URLSearchParams): string {
  const target = params.get('redirect') ?? '';
  // Same-site paths only, so a crafted link cannot hand a fresh session to another origin.
  const sameSite = target.startsWith('/') && !target.startsWith('//') && !target.startsWith('/\\');
  return sameSite && !target.startsWith('/login') ? target : '/';
}
