import { useNavigate } from "@tanstack/react-router"
import { useSession } from "../api/session.ts"
import { AuthCard } from "../components/AuthCard.tsx"
import { PasswordForm } from "../components/PasswordForm.tsx"

// After a first-run, sign-in or reset link: the person chooses a password before going on.
export const SetPasswordPage = () => {
  const session = useSession()
  const navigate = useNavigate()
  return (
    <AuthCard title="Set your password">
      <p>
        Signed in as <strong>{session.person.email}</strong>. Choose a password to sign in with from now on.
      </p>
      <PasswordForm
        askCurrent={session.person.hasPassword && !session.mustSetPassword}
        submitLabel="Set password"
        onDone={() => void navigate({ to: "/accounts" })}
      />
    </AuthCard>
  )
}
