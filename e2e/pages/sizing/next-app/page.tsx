import { createRoot } from 'react-dom/client';
import './globals.css';
import styles from './page.module.css';
import { Screen } from '../snippet';

// create-next-app's default App Router page, rendered statically: app/layout.tsx gives
// <html><body>{children}</body></html> with globals.css; app/page.tsx keeps its .page and .main
// wrappers (page.module.css) and their content is replaced by the README snippet.
function Home() {
  return (
    <div className={styles.page}>
      <main className={styles.main}>
        <Screen />
      </main>
    </div>
  );
}

createRoot(document.body).render(<Home />);
