import type { ReactNode } from 'react'
import { FieldError, Input, Label, Text, TextArea, TextField } from 'react-aria-components'
import { useTranslation } from 'react-i18next'
import { fieldId } from './error-summary'

interface TextInputProps {
  name: string
  label: string
  hint?: ReactNode
  type?: 'text' | 'email' | 'password' | 'tel' | 'number' | 'date'
  autoComplete?: string
  inputMode?: 'decimal' | 'numeric' | 'tel' | 'email' | 'text'
  defaultValue?: string
  value?: string
  onChange?: (value: string) => void
  optional?: boolean
  multiline?: boolean
  maxLength?: number
  /** For a field in a group whose error the group shows (date-input.tsx): its id, and red without a message of its own. */
  id?: string
  invalid?: boolean
  /** False where the group says "(optional)" once for its fields. */
  sayOptional?: boolean
}

/**
 * One labelled field: React Aria wires the label, the hint and the error message into the input's
 * name and description, and shows the form's validationErrors for `name`. Optional fields say so in
 * words; required ones are the default.
 */
export function TextInput ({ name, label, hint, type = 'text', autoComplete, inputMode, defaultValue, value, onChange, optional = false, multiline = false, maxLength, id, invalid, sayOptional = true }: TextInputProps) {
  const { t } = useTranslation()
  return (
    <TextField
      className='field'
      name={name}
      id={id ?? fieldId(name)}
      type={type}
      autoComplete={autoComplete}
      defaultValue={defaultValue}
      value={value}
      onChange={onChange}
      maxLength={maxLength}
      isRequired={!optional}
      {...(invalid === true ? { isInvalid: true } : {})}
    >
      <Label>{label}{optional && sayOptional ? ` ${t('form.optional')}` : ''}</Label>
      {hint !== undefined ? <Text slot='description' className='hint'>{hint}</Text> : null}
      <FieldError className='field-error' />
      {multiline ? <TextArea rows={4} /> : <Input inputMode={inputMode} />}
    </TextField>
  )
}
