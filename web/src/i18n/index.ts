import i18next from 'i18next'
import { initReactI18next } from 'react-i18next'
import deTexts from './de.json?url'
import enTexts from './en.json?url'
import en from './en.json?start'

export const LANGUAGES = ['en', 'de'] as const
export type Language = typeof LANGUAGES[number]

const STORAGE_KEY = 'language'

/** The person's own choice if they made one here, else the first of the browser's languages we have. */
function initialLanguage (): Language {
  const chosen = localStorage.getItem(STORAGE_KEY)
  if (chosen === 'en' || chosen === 'de') return chosen
  for (const tag of navigator.languages) {
    const base = tag.slice(0, 2).toLowerCase()
    if (base === 'en' || base === 'de') return base
  }
  return 'en'
}

/**
 * German texts load when German is wanted: most of the people of an English-speaking start page never need them.
 * Fetched as a file rather than imported: a browser remembers a failed import, so a second try would fail too.
 */
async function loadTexts (language: Language): Promise<void> {
  if (language === 'en' || i18next.hasResourceBundle(language, 'translation')) return
  const response = await fetch(deTexts)
  if (!response.ok) throw new Error(`German texts: ${response.status}`)
  i18next.addResourceBundle(language, 'translation', await response.json() as Record<string, unknown>)
}

let pageTexts: Promise<void> | undefined
/**
 * All the English texts, which the pages loaded on first use need (the start page carries only its own, START_TEXTS):
 * asked for beside the page's code, so it costs no extra wait. A failure is not remembered, so the next page asks again.
 */
export function loadPageTexts (): Promise<void> {
  pageTexts ??= (async () => {
    const response = await fetch(enTexts)
    if (!response.ok) throw new Error(`English texts: ${response.status}`)
    i18next.addResourceBundle('en', 'translation', await response.json() as Record<string, unknown>, true, true)
  })().catch((error: unknown) => {
    pageTexts = undefined
    throw error
  })
  return pageTexts
}

export async function setupI18n (): Promise<void> {
  const language = initialLanguage()
  await i18next.use(initReactI18next).init({
    resources: { en: { translation: en } },
    lng: language,
    fallbackLng: 'en',
    // React escapes what it renders.
    interpolation: { escapeValue: false },
    returnNull: false,
  })
  try {
    await loadTexts(language)
    // Texts added after init: render them now (the first render comes after this function).
    if (language !== 'en') await i18next.changeLanguage(language)
  } catch {
    // The German texts could not be loaded: the page shows in English, and says so (lang) to screen readers.
    await i18next.changeLanguage('en')
  }
  document.documentElement.lang = i18next.language
  i18next.on('languageChanged', (language) => { document.documentElement.lang = language })
}

/** Switches the page to `language`; rejects, changing nothing, when its texts cannot be loaded. */
export async function chooseLanguage (language: Language): Promise<void> {
  localStorage.setItem(STORAGE_KEY, language)
  await loadTexts(language)
  await i18next.changeLanguage(language)
}
