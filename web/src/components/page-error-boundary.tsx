import { Component, type ReactNode } from 'react'
import { Button } from 'react-aria-components'
import { useTranslation } from 'react-i18next'
import { Page } from './page'

/**
 * A page that could not be shown, most often because its code could not be loaded (a lost connection, or
 * a new version of the app whose files replaced the old ones): said in words, with a way to try again,
 * instead of a blank screen. Going to another page clears it (`resetKey`, the address).
 */
export class PageErrorBoundary extends Component<{ resetKey: string, children: ReactNode }, { failed: boolean }> {
  override state = { failed: false }

  static getDerivedStateFromError (): { failed: boolean } {
    return { failed: true }
  }

  override componentDidUpdate (previous: { resetKey: string }): void {
    if (this.state.failed && previous.resetKey !== this.props.resetKey) this.setState({ failed: false })
  }

  override render (): ReactNode {
    return this.state.failed ? <PageFailed /> : this.props.children
  }
}

function PageFailed () {
  const { t } = useTranslation()
  // Loading the page again fetches the app's current files; the session cookie keeps the person signed in.
  return (
    <Page title={t('errors.pageFailedTitle')} hasErrors>
      <p role='alert'>{t('errors.pageFailed')}</p>
      <Button className='button' onPress={() => { window.location.reload() }}>{t('volunteer.tryAgain')}</Button>
    </Page>
  )
}
