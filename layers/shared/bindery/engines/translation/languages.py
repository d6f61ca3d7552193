"""The official `TranslationLanguage` codes and their English names (for prompts and result titles)."""

from __future__ import annotations

NAMES = {
    "en": "English", "fr": "French", "de": "German", "es": "Spanish", "it": "Italian", "pt": "Portuguese",
    "pt-br": "Brazilian Portuguese", "ru": "Russian", "ja": "Japanese", "zh": "Chinese (Simplified)",
    "yue": "Cantonese", "ko": "Korean", "ar": "Arabic", "hi": "Hindi", "nl": "Dutch", "pl": "Polish",
    "tr": "Turkish", "sv": "Swedish", "no": "Norwegian", "da": "Danish", "fi": "Finnish", "el": "Greek",
    "cs": "Czech", "hu": "Hungarian", "ro": "Romanian", "th": "Thai", "vi": "Vietnamese",
    "id": "Indonesian", "ms": "Malay", "he": "Hebrew", "uk": "Ukrainian", "sk": "Slovak", "bg": "Bulgarian",
    "hr": "Croatian", "lt": "Lithuanian", "lv": "Latvian", "et": "Estonian", "sl": "Slovenian",
}


def english_name(code: str) -> str:
    return NAMES.get(code, code)
