//go:build !wsqchaos || wsqcheck

package chaos

const enabled = false
