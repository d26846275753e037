"""Errors: for the emulator's user, and for the bot (Discord-style HTTP errors)."""

from __future__ import annotations

from typing import Any


class EmulatorError(Exception):
    """Something a person could not have done in Discord's client, or the bot never answered."""


class ApiError(Exception):
    """An HTTP error answered to the bot with Discord's JSON body."""

    def __init__(self, status: int, code: int, message: str, errors: dict[str, Any] | None = None) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors

    def body(self) -> dict[str, Any]:
        body: dict[str, Any] = {"message": self.message, "code": self.code}
        if self.errors:
            body["errors"] = self.errors
        return body

    @classmethod
    def unknown_channel(cls) -> ApiError:
        return cls(404, 10003, "Unknown Channel")

    @classmethod
    def unknown_message(cls) -> ApiError:
        return cls(404, 10008, "Unknown Message")

    @classmethod
    def unknown_webhook(cls) -> ApiError:
        return cls(404, 10015, "Unknown Webhook")

    @classmethod
    def unknown_interaction(cls) -> ApiError:
        return cls(404, 10062, "Unknown interaction")

    @classmethod
    def missing_access(cls) -> ApiError:
        return cls(403, 50001, "Missing Access")

    @classmethod
    def missing_permissions(cls) -> ApiError:
        return cls(403, 50013, "Missing Permissions")

    @classmethod
    def entity_too_large(cls) -> ApiError:
        return cls(413, 40005, "Request entity too large")

    @classmethod
    def already_acknowledged(cls) -> ApiError:
        return cls(400, 40060, "Interaction has already been acknowledged.")

    @classmethod
    def invalid_form(cls, field: str, message: str, error_code: str = "BASE_TYPE_INVALID") -> ApiError:
        """Discord's 50035 with the per-field error tree that discord.py flattens into its message."""
        tree: dict[str, Any] = {"_errors": [{"code": error_code, "message": message}]}
        for part in reversed(field.split(".")):
            tree = {part: tree}
        return cls(400, 50035, "Invalid Form Body", tree)
