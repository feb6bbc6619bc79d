"""fpgatrax.hw"""
