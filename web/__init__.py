"""The dashboard: Flask app factory (:func:`web.app.create_app`) and its server."""
