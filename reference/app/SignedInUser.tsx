import { useEffect, useState } from 'react';

/**
 * Who this browser is signed in as (`GET /app/me`), and Sign out: each
 * browser is its own anonymous user, so its threads are its own. Sign out
 * ends the session (`POST /app/sign-out`) and reloads the page, which signs
 * the browser in as a new guest with none of the old threads. Shows nothing
 * until it knows who; says so in words when signing out fails.
 */
export function SignedInUser() {
  const [user, setUser] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [leaving, setLeaving] = useState(false);
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
  const signOut = async () => {
    setLeaving(true);
    setProblem(null);
    try {
      const response = await fetch('/app/sign-out', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      if (!response.ok) throw new Error(`the server answered ${response.status}`);
      window.location.reload();
    } catch (error) {
      setLeaving(false);
      setProblem(`Could not sign out (${error instanceof Error ? error.message : String(error)}). Try again.`);
    }
  };
  return (
    <div className="app-user">
      <p data-part="signed-in-user">
        Signed in as <strong>{user}</strong>
      </p>
      <button type="button" className="app-sign-out" onClick={() => void signOut()} disabled={leaving}>
        Sign out
      </button>
      {problem ? <p role="alert">{problem}</p> : null}
    </div>
  );
}
