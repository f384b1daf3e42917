import { useEffect, useState } from 'react';

/**
 * Who this browser is signed in as (`GET /app/me`): each browser is its own
 * anonymous user, so its threads are its own. Shows nothing until it knows.
 */
export function SignedInUser() {
  const [user, setUser] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    fetch('/app/me')
      .then(async (response) => (response.ok ? ((await response.json()) as { user?: unknown }) : null))
      .then((body) => {
        if (live && typeof body?.user === 'string') setUser(body.user);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);
  if (user === null) return null;
  return (
    <p className="app-user" data-part="signed-in-user">
      Signed in as <strong>{user}</strong>
    </p>
  );
}
