/**
 * The floor for the bundle benchmark: the smallest React 19 page (react + react-dom/client), built with
 * the same Vite and plugin as the console, so "console initial JS / this" says what the shell adds.
 */
import { createRoot } from 'react-dom/client'

createRoot(document.getElementById('root')!).render(<h1>Hello</h1>)
