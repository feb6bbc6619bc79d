"""fpgatrax.host"""
