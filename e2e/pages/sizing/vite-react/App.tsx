import './App.css';
import { Screen } from '../snippet';

// The template's src/App with its body replaced by the README snippet, as a developer does.
export function App() {
  return <Screen />;
}
