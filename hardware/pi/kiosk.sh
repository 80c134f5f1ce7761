#!/bin/sh
# passetable's kiosk: waits for the dashboard, then shows /tv full screen in chromium.
# Installed as /opt/passetable/kiosk.sh; used by the desktop autostart and by cage on Lite.
URL="${PASSETABLE_TV_URL:-http://127.0.0.1:@PORT@/tv}"
i=0
while [ $i -lt 60 ] && ! wget -q -O /dev/null "${URL%/tv}/healthz" 2>/dev/null; do sleep 1; i=$((i + 1)); done
exec chromium --kiosk --noerrdialogs --disable-infobars --no-first-run --disable-session-crashed-bubble \
     --check-for-update-interval=31536000 --password-store=basic "$URL"
