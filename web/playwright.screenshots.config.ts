import base from './playwright.config.js'
import { defineConfig } from '@playwright/test'

/** `npm run web:screenshots`: the main pages at phone and desktop widths, into docs/screenshots/. */
export default defineConfig({ ...base, testMatch: '*.shots.ts' })
