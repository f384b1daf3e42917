import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// jsdom lacks these layout APIs; components only call them for scrolling and sizing.
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};
Element.prototype.scrollIntoView ??= function scrollIntoView() {};

// CI shares two cores with builds and a browser: give findBy/waitFor room before they call a flow broken.
configure({ asyncUtilTimeout: 5_000 });

// Surfaces keep their thread list in localStorage: each test starts with none.
afterEach(() => {
  cleanup();
  localStorage.clear();
});
