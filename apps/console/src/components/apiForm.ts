import type { FormEvent } from "react"
import { ApiError } from "../api/ApiError.ts"

/**
 * What a form that sends one request needs of it: `onSubmit` sends it without a page load, `about(name)` is
 * the API's message about a field (error `details`), and `field(name, value, set)` binds a text control to
 * its state and to that message: `<TextField label="E-mail" {...form.field("email", email, setEmail)} />`.
 */
export const apiForm = (request: { readonly mutate: () => void; readonly error: unknown }) => {
  const about = (name: string) => (request.error instanceof ApiError ? request.error.about(name) : undefined)
  return {
    onSubmit: (event: FormEvent) => {
      event.preventDefault()
      request.mutate()
    },
    about,
    field: (name: string, value: string, set: (value: string) => void) => ({
      value,
      onChange: (event: { readonly currentTarget: { readonly value: string } }) => set(event.currentTarget.value),
      error: about(name)
    })
  }
}
