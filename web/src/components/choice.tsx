import type { ReactNode } from 'react'
import { FieldError, Label, Radio, RadioGroup, Text } from 'react-aria-components'
import { fieldId } from './error-summary'

interface ChoiceProps {
  name: string
  label: string
  hint?: ReactNode
  options: ReadonlyArray<{ value: string, label: ReactNode, description?: string }>
  value: string | null
  onChange: (value: string) => void
  optional?: boolean
  /** The page's h1 asks the question already (one question per page): the group keeps it as its name, unseen. */
  hideLabel?: boolean
}

/**
 * A group of radio buttons (React Aria): one Tab stop, arrow keys move between options, the group is
 * named by its label and carries its error. The first option gets the id the error summary links to.
 */
export function Choice ({ name, label, hint, options, value, onChange, optional = false, hideLabel = false }: ChoiceProps) {
  return (
    <RadioGroup className='field choice' name={name} value={value} onChange={onChange} isRequired={!optional}>
      <Label className={hideLabel ? 'visually-hidden' : 'legend'}>{label}</Label>
      {hint !== undefined ? <Text slot='description' className='hint'>{hint}</Text> : null}
      <FieldError className='field-error' />
      {options.map((option, index) => (
        <Radio key={option.value} value={option.value} className='radio' id={index === 0 ? fieldId(name) : undefined}>
          <span className='radio-mark' aria-hidden='true' />
          <span>
            {option.label}
            {option.description !== undefined ? <span className='hint radio-hint'>{option.description}</span> : null}
          </span>
        </Radio>
      ))}
    </RadioGroup>
  )
}
