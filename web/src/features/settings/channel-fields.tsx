import { Checkbox, CheckboxGroup, FieldError, Label, Switch, Text } from 'react-aria-components'
import { useTranslation } from 'react-i18next'
import { fieldId } from '../../components/error-summary'

export type Channel = 'email' | 'push' | 'sms'

export interface ChannelState {
  enabled: boolean
  setEnabled: (on: boolean) => void
  types: string[]
  setTypes: (types: string[]) => void
}

/** A channel on or off, and (while on) its types, as GOV.UK's conditional reveal; each type by its plain phrase (`settings.types.*`). */
export function ChannelChoice ({ channel, choices, state: { enabled, setEnabled, types, setTypes } }: { channel: Channel, choices: readonly string[], state: ChannelState }) {
  const { t } = useTranslation()
  const name = `${channel}_types`
  return (
    <>
      <Switch className='switch' isSelected={enabled} onChange={setEnabled}>
        <span className='switch-track' aria-hidden='true'><span className='switch-thumb' /></span>
        <span>{t(`settings.${channel}On`)}<span className='hint radio-hint'>{t(`settings.${channel}OnHint`)}</span></span>
      </Switch>
      {enabled
        ? (
          <CheckboxGroup className='field choice' name={name} value={types} onChange={setTypes} id={fieldId(name)}>
            <Label className='legend'>{t(`settings.${channel}Types`)}</Label>
            <Text slot='description' className='hint'>{t('settings.typesHint')}</Text>
            <FieldError className='field-error' />
            {choices.map((type) => (
              <Checkbox key={type} value={type} className='radio'>
                <span className='checkbox-mark' aria-hidden='true' />
                <span>{t(`settings.types.${type}`)}</span>
              </Checkbox>
            ))}
          </CheckboxGroup>
          )
        : null}
    </>
  )
}

/** One channel's section: its heading, then the choice. */
export function ChannelFields ({ channel, choices, state }: { channel: Channel, choices: readonly string[], state: ChannelState }) {
  const { t } = useTranslation()
  return (
    <section aria-labelledby={`${channel}-heading`} className='stack'>
      <h2 id={`${channel}-heading`}>{t(`settings.${channel}`)}</h2>
      <ChannelChoice channel={channel} choices={choices} state={state} />
    </section>
  )
}
