from tests.browser.conftest import browser, new_page, screenshot  # noqa: F401
